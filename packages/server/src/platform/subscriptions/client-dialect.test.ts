/** Which SDK subscribes, from its User-Agent, and what a package name stands for to it. */
import { EVENT_PACKAGES } from '@openness/wire'
import { describe, expect, it } from 'vitest'
import { clientDialectOf, packageReaches } from './client-dialect.js'

describe('clientDialectOf', () => {
  it.each([
    ['Java-http-client/17.0.2', 'java'],
    ['Java-http-client/21', 'java'],
    [undefined, 'dotnet'],
    ['', 'dotnet'],
    ['node', undefined],
    ['undici', undefined],
    ['Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', undefined],
    ['curl/8.5.0', undefined],
    ['java-http-client/17', undefined],
  ])('reads %j as %j', (userAgent, dialect) => {
    expect(clientDialectOf(userAgent)).toBe(dialect)
  })
})

describe('packageReaches', () => {
  it('leaves out of the telephony and user packages, for the C# SDK, the events it does not register', () => {
    const reached = (pkg: keyof typeof EVENT_PACKAGES) =>
      EVENT_PACKAGES[pkg].filter((name) => !packageReaches('dotnet', name))
    expect(reached('telephony')).toEqual([
      'OnCallAppeared',
      'OnCallbackRequestAdded',
      'OnDeviceMuteSuccess',
      'OnDeviceMuteFailed',
      'OnDynamicStateModified',
    ])
    expect(reached('user')).toEqual(['OnPreferencesChanged'])
    expect(reached('userManagement')).toEqual([])
  })

  it('reaches every event for other clients', () => {
    for (const names of Object.values(EVENT_PACKAGES))
      for (const name of names) {
        expect(packageReaches(undefined, name)).toBe(true)
        expect(packageReaches('java', name)).toBe(true)
      }
  })
})
