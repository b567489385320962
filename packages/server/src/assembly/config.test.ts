import { describe, expect, it } from 'vitest'
import { ConfigError, DEMO_DIRECTORY_FILE, loadConfig } from './config.js'

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toEqual({
      host: '127.0.0.1',
      httpPort: 8080,
      httpsPort: 8443,
      sessionTtl: 300,
      sessionCookieNames: ['SvcUserId', 'AlcUserId'],
      passwordCacheTtl: 600,
      idempotencyRetention: 86_400,
      dataDir: './data',
      directoryFile: DEMO_DIRECTORY_FILE,
      logLevel: 'info',
      controlHost: '127.0.0.1',
      controlPort: 8090,
      webhookAllowedHosts: '127.0.0.0/8,::1,localhost',
      comlogRecording: true,
      sqliteCheckpointThread: true,
      voicemailMaxMessageSeconds: 120,
      shutdownDrainSeconds: 0,
      journalSize: 10_000,
      connectionLimits: {
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
        maxConnections: 20_000,
        checkIntervalMs: 1_000,
      },
      quotas: {
        sessionsPerAccount: 50,
        subscriptionsPerSession: 100,
        openChannels: 15_000,
        queuedEvents: 500_000,
      },
      redisKeyPrefix: 'openness:',
    })
  })

  it('reads the quotas', () => {
    expect(
      loadConfig({
        MAX_SESSIONS_PER_ACCOUNT: '3',
        MAX_SUBSCRIPTIONS_PER_SESSION: '4',
        MAX_OPEN_CHANNELS: '5',
        MAX_QUEUED_EVENTS: '6',
      }).quotas,
    ).toEqual({
      sessionsPerAccount: 3,
      subscriptionsPerSession: 4,
      openChannels: 5,
      queuedEvents: 6,
    })
    expect(() => loadConfig({ MAX_OPEN_CHANNELS: '0' })).toThrow(/MAX_OPEN_CHANNELS/)
    expect(() => loadConfig({ MAX_QUEUED_EVENTS: '0' })).toThrow(/MAX_QUEUED_EVENTS/)
  })

  it('reads JOURNAL_SIZE: 0 turns the journal off; a negative or too large size is refused', () => {
    expect(loadConfig({ JOURNAL_SIZE: '250' }).journalSize).toBe(250)
    expect(loadConfig({ JOURNAL_SIZE: '0' }).journalSize).toBe(0)
    expect(() => loadConfig({ JOURNAL_SIZE: '-1' })).toThrow(
      'JOURNAL_SIZE=-1: must be an integer from 0 to 1000000',
    )
    expect(() => loadConfig({ JOURNAL_SIZE: 'lots' })).toThrow(/JOURNAL_SIZE=lots/)
  })

  it('reads the connection limits, and refuses headers allowed longer than the whole request', () => {
    expect(
      loadConfig({
        HTTP_HEADERS_TIMEOUT: '5',
        HTTP_REQUEST_TIMEOUT: '20',
        HTTP_KEEPALIVE_TIMEOUT: '2',
        HTTP_MAX_CONNECTIONS: '500',
      }).connectionLimits,
    ).toEqual({
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 20_000,
      keepAliveTimeoutMs: 2_000,
      maxConnections: 500,
      checkIntervalMs: 1_000,
    })
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT: '40', HTTP_REQUEST_TIMEOUT: '30' })).toThrow(
      'HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_REQUEST_TIMEOUT',
    )
  })

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      HTTP_PORT: '9080',
      HTTPS_PORT: '0',
      PUBLIC_BASE_URL: 'https://pbx.example.com/',
      PRIVATE_BASE_URL: 'http://10.0.0.5:9080',
      TLS_CERT_FILE: '/etc/cert.pem',
      TLS_KEY_FILE: '/etc/key.pem',
      SESSION_TTL: '600',
      SESSION_COOKIE_NAMES: ' AlcUserId , SvcUserId ',
      PASSWORD_CACHE_TTL: '0',
      IDEMPOTENCY_RETENTION: '3600',
      DATA_DIR: '/var/lib/openness',
      DIRECTORY_FILE: '/etc/openness/directory.yaml',
      DATABASE_URL: 'postgres://db/openness',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty',
      CONTROL_HOST: '0.0.0.0',
      CONTROL_PORT: '9090',
      CONTROL_TOKEN: 'a-long-operator-token',
      METRICS_TOKEN: 'a-long-scraping-token',
      POLLING_BASE_URL: 'http://events.example.com:8014',
      WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com, 10.0.0.0/8',
      WEBHOOK_SECRET: 'a-long-signing-secret',
      COMLOG_RECORDING: 'off',
      SQLITE_CHECKPOINT_THREAD: 'off',
      VOICEMAIL_MAX_MESSAGE_SECONDS: '60',
      SHUTDOWN_DRAIN_SECONDS: '10',
      JOURNAL_SIZE: '0',
      HTTP_HEADERS_TIMEOUT: '5',
      HTTP_REQUEST_TIMEOUT: '20',
      HTTP_KEEPALIVE_TIMEOUT: '2',
      HTTP_MAX_CONNECTIONS: '500',
      MAX_SESSIONS_PER_ACCOUNT: '3',
      MAX_SUBSCRIPTIONS_PER_SESSION: '4',
      MAX_OPEN_CHANNELS: '5',
      MAX_QUEUED_EVENTS: '6',
      REDIS_URL: 'redis://cache:6379',
      REDIS_KEY_PREFIX: 'site1:',
      CLUSTER_NODE_ID: 'node-1',
    })
    expect(config).toEqual({
      host: '0.0.0.0',
      httpPort: 9080,
      httpsPort: 0,
      publicBaseUrl: 'https://pbx.example.com',
      privateBaseUrl: 'http://10.0.0.5:9080',
      tlsCertFile: '/etc/cert.pem',
      tlsKeyFile: '/etc/key.pem',
      sessionTtl: 600,
      sessionCookieNames: ['AlcUserId', 'SvcUserId'],
      passwordCacheTtl: 0,
      idempotencyRetention: 3600,
      dataDir: '/var/lib/openness',
      directoryFile: '/etc/openness/directory.yaml',
      databaseUrl: 'postgres://db/openness',
      logLevel: 'warn',
      logFormat: 'pretty',
      controlHost: '0.0.0.0',
      controlPort: 9090,
      controlToken: 'a-long-operator-token',
      metricsToken: 'a-long-scraping-token',
      pollingBaseUrl: 'http://events.example.com:8014',
      webhookAllowedHosts: 'hooks.example.com, 10.0.0.0/8',
      webhookSecret: 'a-long-signing-secret',
      comlogRecording: false,
      sqliteCheckpointThread: false,
      voicemailMaxMessageSeconds: 60,
      shutdownDrainSeconds: 10,
      journalSize: 0,
      connectionLimits: {
        headersTimeoutMs: 5_000,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 2_000,
        maxConnections: 500,
        checkIntervalMs: 1_000,
      },
      quotas: {
        sessionsPerAccount: 3,
        subscriptionsPerSession: 4,
        openChannels: 5,
        queuedEvents: 6,
      },
      redisUrl: 'redis://cache:6379',
      redisKeyPrefix: 'site1:',
      clusterNodeId: 'node-1',
    })
  })

  it('refuses an unreadable webhook allow-list and a short webhook secret', () => {
    expect(() =>
      loadConfig({ WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/40', WEBHOOK_SECRET: 'short' }),
    ).toThrow(
      [
        'Invalid configuration:',
        "  - WEBHOOK_ALLOWED_HOSTS: '10.0.0.0/40': the prefix length must be from 0 to 32",
        '  - WEBHOOK_SECRET: must have at least 16 characters',
      ].join('\n'),
    )
  })

  it('names every bad variable in one message', () => {
    const bad = () =>
      loadConfig({
        HTTP_PORT: 'eighty',
        SESSION_TTL: '5',
        PUBLIC_BASE_URL: 'https://pbx.example.com/api',
        TLS_CERT_FILE: '/etc/cert.pem',
        LOG_LEVEL: 'loud',
        LOG_FORMAT: 'fancy',
        COMLOG_RECORDING: 'yes',
      })
    expect(bad).toThrow(ConfigError)
    expect(bad).toThrow(
      [
        'Invalid configuration:',
        '  - HTTP_PORT=eighty: must be an integer from 0 to 65535',
        '  - SESSION_TTL=5: must be an integer from 10 to 86400',
        '  - COMLOG_RECORDING=yes: must be on or off',
        '  - PUBLIC_BASE_URL=https://pbx.example.com/api: must be an http(s) origin such as https://pbx.example.com:8443 (no path)',
        '  - LOG_LEVEL=loud: must be one of fatal, error, warn, info, debug, trace, silent',
        '  - LOG_FORMAT=fancy: must be json or pretty',
        '  - TLS_CERT_FILE and TLS_KEY_FILE: set both or neither',
      ].join('\n'),
    )
  })

  it('needs at least one listener, on distinct ports', () => {
    expect(() => loadConfig({ HTTP_PORT: '0', HTTPS_PORT: '0' })).toThrow(/at least one listener/)
    expect(() => loadConfig({ HTTP_PORT: '9000', HTTPS_PORT: '9000' })).toThrow(/its own port/)
    expect(() => loadConfig({ CONTROL_PORT: '8080' })).toThrow(/its own port/)
    expect(() => loadConfig({ CONTROL_TOKEN: 'short' })).toThrow(
      /CONTROL_TOKEN: must have at least 16/,
    )
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must have at least 16/,
    )
  })
})

describe('loadConfig SESSION_COOKIE_NAMES', () => {
  it('takes one name, the only one then accepted and set', () => {
    expect(loadConfig({ SESSION_COOKIE_NAMES: 'SvcUserId' }).sessionCookieNames).toEqual([
      'SvcUserId',
    ])
  })

  it.each([
    'SvcUserId,',
    'Svc-UserId',
    'session',
    'UserId',
    'SvcUserId,SvcUserId',
    'SvcUserId;AlcUserId',
  ])('refuses %j, saying what a name looks like', (value) => {
    expect(() => loadConfig({ SESSION_COOKIE_NAMES: value })).toThrow(
      `SESSION_COOKIE_NAMES=${value}: must be distinct cookie names of the form <prefix>UserId`,
    )
  })
})

describe('loadConfig DATABASE_URL', () => {
  it.each([
    'postgres://db/x',
    'postgresql://u@h:5432/x',
    'sqlite:/var/lib/x.sqlite3',
    'sqlite::memory:',
  ])('accepts %s', (url) => {
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url)
  })

  it('refuses another scheme without echoing credentials', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root:secret@db/x' })).toThrow(
      'DATABASE_URL: must start with postgres://, postgresql:// or sqlite: (got mysql:)',
    )
  })
})

describe('loadConfig cluster mode', () => {
  const cluster = { DATABASE_URL: 'postgres://db/x', REDIS_URL: 'redis://cache:6379/2' }

  it('turns on with REDIS_URL and a PostgreSQL DATABASE_URL, with a node id and a key prefix', () => {
    const config = loadConfig({
      ...cluster,
      CLUSTER_NODE_ID: 'node-a.1',
      REDIS_KEY_PREFIX: 'site1:',
    })
    expect(config).toMatchObject({
      redisUrl: 'redis://cache:6379/2',
      clusterNodeId: 'node-a.1',
      redisKeyPrefix: 'site1:',
    })
  })

  it('accepts rediss:// and leaves the node id to be generated', () => {
    const config = loadConfig({ ...cluster, REDIS_URL: 'rediss://u:p@cache:6380' })
    expect(config.redisUrl).toBe('rediss://u:p@cache:6380')
    expect(config.clusterNodeId).toBeUndefined()
  })

  it.each([
    [{}, 'without DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:/var/lib/x.sqlite3' }, 'with SQLite'],
  ] as const)(
    'refuses REDIS_URL %j (%s): the durable state must be in PostgreSQL',
    (database, _case) => {
      expect(() => loadConfig({ REDIS_URL: 'redis://cache', ...database })).toThrow(
        'REDIS_URL: the cluster mode keeps its durable state in PostgreSQL: set DATABASE_URL to a postgres:// URL too',
      )
    },
  )

  it('refuses another scheme, a bad node id and a bad prefix, naming each', () => {
    const attempt = (): unknown =>
      loadConfig({
        DATABASE_URL: 'postgres://db/x',
        REDIS_URL: 'http://secret@cache',
        CLUSTER_NODE_ID: '-node a',
        REDIS_KEY_PREFIX: 'a prefix',
      })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow('REDIS_URL: must start with redis:// or rediss:// (got http:)')
    expect(attempt).toThrow('CLUSTER_NODE_ID=-node a: must be 1 to 64 letters')
    expect(attempt).toThrow('REDIS_KEY_PREFIX=a prefix: must be at most 64 letters')
    expect(attempt).not.toThrow('secret')
  })
})
