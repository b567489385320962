export * from './agent.js'
export * from './call-data.js'
export * from './management.js'
export * from './pilot-monitoring.js'
