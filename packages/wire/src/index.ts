/** @openness/wire: every record that crosses HTTP, declared once as a TypeBox schema. */
export * from './authentication.js'
export * from './enumeration.js'
export * from './errors.js'
export * from './events.js'
export * from './root.js'
export * from './session.js'
export * from './subscription.js'
export * from './user.js'
