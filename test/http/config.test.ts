// Flag and environment parsing of svc serve / svc predict.
import { describe, expect, it } from 'vitest';
import { ConfigError, ENGINE_DEFAULTS, parseBytes, parsePredictConfig, parseServeConfig } from '../../src/config.js';
import { serverUrl } from '../../src/server/run-servers.js';

describe('serve config', () => {
  it('defaults', () => {
    const c = parseServeConfig([], {});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      predictPort: 8081,
      predict: true,
      main: true,
      dataDir: './data',
      models: [],
      apiKeys: [],
      maxBody: null,
      maxUpload: 512 * 1024 * 1024,
      rateLimitRps: 50,
      rateLimitBurst: 100,
      logLevel: 'info',
      prefixCache: true,
      predictApiKey: null,
      shutdownTimeoutS: 10,
      streamStallTimeoutS: 8,
      role: 'standalone',
    });
  });

  it('environment first, flags win; lists are comma-separated in env and repeatable as flags', () => {
    const env = { SVC_PORT: '9000', SVC_MODEL: 'a.gguf, b.gguf', SVC_API_KEYS: 'sk-aaaaaaaa,sk-bbbbbbbb', SVC_NO_PREDICT: 'true', SVC_MAX_BODY: '1MiB' };
    const fromEnv = parseServeConfig([], env);
    expect(fromEnv).toMatchObject({ port: 9000, models: ['a.gguf', 'b.gguf'], apiKeys: ['sk-aaaaaaaa', 'sk-bbbbbbbb'], predict: false, maxBody: 1 << 20 });
    const c = parseServeConfig(['--port', '9001', '--model', 'c.gguf', '--model=d.gguf', '--api-key', 'sk-cccccccc', '--no-predict=false', '--no-prefix-cache'], env);
    expect(c).toMatchObject({ port: 9001, models: ['c.gguf', 'd.gguf'], apiKeys: ['sk-cccccccc'], predict: true, prefixCache: false });
  });

  it('--engine-nice: 0-19, from the flag or SVC_ENGINE_NICE, default ENGINE_DEFAULTS.engineNice', () => {
    expect(parseServeConfig([], {}).engineNice).toBe(ENGINE_DEFAULTS.engineNice);
    expect(parseServeConfig(['--engine-nice', '7'], {}).engineNice).toBe(7);
    expect(parseServeConfig([], { SVC_ENGINE_NICE: '19' }).engineNice).toBe(19);
    expect(parseServeConfig(['--engine-nice', '0'], { SVC_ENGINE_NICE: '19' }).engineNice).toBe(0);
    for (const bad of ['20', '-1', '2.5']) expect(() => parseServeConfig(['--engine-nice', bad], {})).toThrow(/--engine-nice/);
  });

  it('SVC_API_KEY (singular) also works, beside SVC_API_KEYS too', () => {
    expect(parseServeConfig([], { SVC_API_KEY: 'sk-single-key' }).apiKeys).toEqual(['sk-single-key']);
    expect(parseServeConfig([], { SVC_API_KEYS: 'sk-aaaaaaaa,sk-bbbbbbbb', SVC_API_KEY: 'sk-single-key' }).apiKeys).toEqual(['sk-aaaaaaaa', 'sk-bbbbbbbb', 'sk-single-key']);
  });

  it('byte sizes', () => {
    expect(parseBytes('8MiB')).toBe(8 * 1024 * 1024);
    expect(parseBytes('512KiB')).toBe(512 * 1024);
    expect(parseBytes('2M')).toBe(2 * 1024 * 1024);
    expect(parseBytes('1MB')).toBe(1_000_000);
    expect(parseBytes('1234')).toBe(1234);
    expect(parseBytes('1.5GiB')).toBe(1.5 * 1024 ** 3);
    expect(parseBytes('lots')).toBeNull();
  });

  it('bad input throws ConfigError naming the flag and its env variable', () => {
    const bad: Array<[string[], RegExp]> = [
      [['--bogus'], /unknown flag --bogus/],
      [['--port'], /--port needs a value/],
      [['--port', 'x'], /--port: expected a number, got 'x'/],
      // blank and non-decimal numbers (a blank --rate-limit-rps used to mean 0: no limit)
      [['--rate-limit-rps', ''], /--rate-limit-rps: expected a number, got ''/],
      [['--max-queue', ' '], /--max-queue: expected a number/],
      [['--port', '0x10'], /--port: expected a number/],
      [['--port', '1e3'], /--port: expected a number/],
      [['--port', '70000'], /--port/],
      [['--max-body', '10 bananas'], /--max-body \(SVC_MAX_BODY\): expected a byte size/],
      [['--log-level', 'loud'], /--log-level/],
      [['--api-key', 'short'], /at least 8/],
      [['stray'], /unexpected argument 'stray'/],
      [['--rate-limit-burst', '0'], /--rate-limit-burst/],
    ];
    for (const [argv, re] of bad) {
      expect(() => parseServeConfig(argv, {}), argv.join(' ')).toThrow(ConfigError);
      expect(() => parseServeConfig(argv, {}), argv.join(' ')).toThrow(re);
    }
    expect(() => parseServeConfig([], { SVC_NO_PREDICT: 'maybe' })).toThrow(/SVC_NO_PREDICT: expected true or false/);
    expect(() => parseServeConfig([], { SVC_RATE_LIMIT_RPS: ' ' })).toThrow(/SVC_RATE_LIMIT_RPS: expected a number/);
    expect(parseServeConfig(['--rate-limit-rps', ' 2.5 ', '--shutdown-timeout', '.5'], {})).toMatchObject({ rateLimitRps: 2.5, shutdownTimeoutS: 0.5 });
  });
});

describe('predict config', () => {
  it('--port is the prediction port; role and prefiller', () => {
    const c = parsePredictConfig(['--role', 'decoder', '--prefiller', 'http://127.0.0.1:9001', '--port', '9002'], {});
    expect(c).toMatchObject({ role: 'decoder', prefillerUrl: 'http://127.0.0.1:9001', predictPort: 9002, main: false, predict: true });
    expect(() => parsePredictConfig(['--role', 'decoder'], {})).toThrow(/needs --prefiller/);
    expect(() => parsePredictConfig(['--role', 'decoder', '--prefiller', 'ftp://x'], {})).toThrow(/--prefiller .*http:\/\/ or https:\/\//);
    expect(() => parsePredictConfig(['--role', 'prefiller', '--prefiller', 'http://127.0.0.1:9001'], {})).toThrow(/only|is for --role decoder/);
    expect(() => parsePredictConfig(['--role', 'boss'], {})).toThrow(/--role/);
    expect(() => parsePredictConfig(['--no-predict'], {})).toThrow(/unknown flag/);
  });
});

describe('listening URLs', () => {
  it('bracket IPv6 hosts', () => {
    expect(serverUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(serverUrl('::1', 8080)).toBe('http://[::1]:8080');
    expect(new URL(serverUrl('::', 1)).port).toBe('1');
  });
});
