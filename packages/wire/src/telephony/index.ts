export * from './call.js'
export * from './callback.js'
export * from './device.js'
export * from './party.js'
