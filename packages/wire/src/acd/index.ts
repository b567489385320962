export * from './call-data.js'
