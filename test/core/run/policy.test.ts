// Policy: the seed's exact thresholds, the default-window rule, and validation messages.
import t from 'tap';
import { thresholds, windowForModel, resolvePolicy } from '../../../src/core/run/policy.js';
import { PolicyError } from '../../../src/core/errors.js';
import { parseTokenCount } from '../../../src/core/meter/token-format.js';

t.test('thresholds follow the seed formulas', async (t) => {
  t.same(thresholds(200_000), { at: 150_000, warnAt: 130_000 });
  t.same(thresholds(1_000_000), { at: 950_000, warnAt: 930_000 });
  t.same(thresholds(55_000), { at: 10_000, warnAt: 1_000 }, '10k floor for at, 1k floor for warn');
  t.same(thresholds(200_000, 100_000), { at: 100_000, warnAt: 80_000 });
});

t.test('default window from the model name', async (t) => {
  t.equal(windowForModel(undefined), 1_000_000);
  t.equal(windowForModel('claude-haiku-4-5'), 200_000);
  t.equal(windowForModel('claude-haiku[1m]'), 1_000_000, '1m is checked first');
  t.equal(windowForModel('claude-sonnet-4-5 1m'), 1_000_000);
  t.equal(windowForModel('claude-sonnet-4-5'), 1_000_000);
  t.equal(windowForModel('claude-opus-4-1m0'), 1_000_000, 'not the word 1m, falls to the else branch');
  t.equal(windowForModel('HAIKU'), 200_000, 'case-insensitive');
});

t.test('resolvePolicy precedence: flag, then reported, then env model', async (t) => {
  const env = { ANTHROPIC_MODEL: 'claude-haiku-4-5' };
  t.equal(resolvePolicy({ env }).window, 200_000);
  t.equal(resolvePolicy({ env }).windowSource, 'model-name');
  t.equal(resolvePolicy({ env: { ANTHROPIC_DEFAULT_OPUS_MODEL: 'x-haiku' } }).window, 200_000);
  t.equal(resolvePolicy({ env: {} }).windowSource, 'default');
  t.equal(resolvePolicy({ env, reportedWindow: 1_000_000 }).window, 1_000_000);
  t.equal(resolvePolicy({ env, reportedWindow: 1_000_000, window: 300_000 }).window, 300_000);
  t.equal(resolvePolicy({ window: 300_000 }).at, 250_000);
  t.equal(resolvePolicy({}).maxGenerations, 8);
  t.equal(resolvePolicy({}).headroom, 50_000);
});

t.test('validation says what was wrong and how to fix it', async (t) => {
  t.throws(() => parseTokenCount('window', 'abc'), { message: /--window expects a token count.*"abc"/ });
  t.equal(parseTokenCount('window', '200k'), 200_000);
  t.equal(parseTokenCount('window', '1m'), 1_000_000);
  t.equal(parseTokenCount('window', '1_000_000'), 1_000_000);
  t.equal(parseTokenCount('headroom', 50000), 50_000);
  t.throws(() => parseTokenCount('window', '-5'), PolicyError);
  t.throws(() => resolvePolicy({ window: 5_000 }), { message: /below the 20000 floor.*--window 200k/ });
  t.throws(() => resolvePolicy({ window: 100_000, headroom: 100_000 }), {
    message: /--headroom 100000 is not smaller than the window/,
  });
  t.equal(resolvePolicy({ window: 20_000 }).at, 10_000, 'the default headroom with a small window falls to the floor');
  t.throws(() => resolvePolicy({ maxGenerations: 0 }), { message: /--max-generations/ });
});
