export * from './agent.js'
export * from './call-data.js'
