/**
 * Small directory files for tests of the directory: users on one desk phone each, the demo's passwords
 * (`demo-<loginName>`), a French numbering plan with four-digit extensions.
 */
import type {
  DirectoryDocument,
  DirectoryUser,
} from '../../src/platform/directory/directory-file-schema.js'

/** A STANDARD user with TELEPHONY_BASIC on the desk phone `extension`, password `demo-<loginName>`. */
export function testUser(loginName: string, extension: string): DirectoryUser {
  return {
    loginName,
    password: `demo-${loginName}`,
    salutation: 'MR',
    firstName: loginName,
    lastName: 'Test',
    type: 'STANDARD',
    companyPhone: extension,
    apiRights: ['TELEPHONY_BASIC'],
    devices: [{ type: 'DESKPHONE', id: extension, role: 'MAIN' }],
  }
}

/** A directory of `users` (by default alice on 1001 and bob on 1002) and the administrator admin. */
export function testDocument(
  users: DirectoryUser[] = [testUser('alice', '1001'), testUser('bob', '1002')],
): DirectoryDocument {
  return {
    company: { name: 'Test Corp' },
    numberingPlan: {
      countryCode: 'FR',
      externalPrefix: '0',
      addPfxForNbLength: 4,
      extensionLength: 4,
    },
    licenses: { TELEPHONY_BASIC: 10, TELEPHONY_ADVANCED: 5, MESSAGING: 5, CONFERENCING: 1 },
    languages: { gui: ['en', 'fr'], tui: ['en'] },
    users,
    administrators: [{ loginName: 'admin', password: 'demo-admin', supervisor: true }],
  }
}
