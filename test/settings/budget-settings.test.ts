import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_BREAKER_SETTINGS, resolveBreaker, resolveBudgets, resolvePrices } from '../../src/config/settings/budget-settings.ts';

const fail = (message: string) => new Error(message);
const user = (values: Record<string, unknown>) => ({ file: '/home/u/.sylvan/settings.json', trusted: true, values });
const project = (values: Record<string, unknown>) => ({ file: '/work/p/.sylvan/settings.json', trusted: false, values });
const none = { flags: {}, environment: {}, dotenv: {}, layers: [], fail };

describe('budgets from flags, variables and settings', () => {
  test('the flag, then the environment, then the user file', () => {
    const layers = [user({ sessionCostBudget: 3, turnTimeBudget: 60 })];
    const limits = resolveBudgets({ ...none, flags: { 'session-cost-budget': '1.5' }, environment: { SYLVAN_TURN_TIME_BUDGET: '30' }, layers });
    assert.deepEqual(limits, { sessionCostBudget: { limit: 1.5 }, turnTimeBudget: { limit: 30 } });
  });

  test('the folder lowers, never raises, and may set one the user did not', () => {
    const limits = resolveBudgets({
      ...none,
      environment: { SYLVAN_SESSION_REQUEST_BUDGET: '10', SYLVAN_TURN_COST_BUDGET: '0.5' },
      dotenv: { SYLVAN_SESSION_REQUEST_BUDGET: '100', SYLVAN_TURN_COST_BUDGET: '0.2' },
      layers: [project({ sessionRequestBudget: 50, sessionTimeBudget: 600 })],
    });
    assert.deepEqual(limits.sessionRequestBudget, { limit: 10 });
    assert.deepEqual(limits.turnCostBudget, { limit: 0.2, loweredBy: 'SYLVAN_TURN_COST_BUDGET in .env' });
    assert.deepEqual(limits.sessionTimeBudget, { limit: 600, loweredBy: 'sessionTimeBudget in /work/p/.sylvan/settings.json' });
  });

  test('a value that is no amount is one line naming where it came from', () => {
    assert.throws(() => resolveBudgets({ ...none, flags: { 'session-cost-budget': 'lots' } }), /^Error: --session-cost-budget: must be an amount above 0 in the provider's currency, like 0\.5, got "lots"\.$/);
    assert.throws(() => resolveBudgets({ ...none, environment: { SYLVAN_SESSION_REQUEST_BUDGET: '2.5' } }), /SYLVAN_SESSION_REQUEST_BUDGET: must be a whole number of requests above 0/);
    assert.throws(() => resolveBudgets({ ...none, layers: [project({ turnTimeBudget: -1 })] }), /turnTimeBudget in \/work\/p\/\.sylvan\/settings\.json: must be a number of seconds above 0/);
  });
});

describe('circuitBreaker and prices in settings', () => {
  test("the user's thresholds replace the defaults; a project's only lower them", () => {
    const thresholds = resolveBreaker([user({ circuitBreaker: { sameFailures: 5, nearIdenticalCalls: 10 } }), project({ circuitBreaker: { sameFailures: 2, nearIdenticalCalls: 50 } })], fail);
    assert.deepEqual(thresholds, { ...DEFAULT_BREAKER_SETTINGS, sameFailures: 2, nearIdenticalCalls: 10 });
    assert.throws(() => resolveBreaker([user({ circuitBreaker: { cycleRepeats: 1 } })], fail), /circuitBreaker\.cycleRepeats: must be a whole number from 2 to 1000/);
  });

  test("prices come from the user's file only; a project's are ignored with a note", () => {
    const notes: string[] = [];
    const prices = resolvePrices([user({ prices: { 'qwen-plus': { input: 0.8, output: 2 } } }), project({ prices: { 'qwen-plus': { input: 0, output: 0 } } })], notes, fail);
    assert.deepEqual(prices, { 'qwen-plus': { input: 0.8, output: 2 } });
    assert.match(notes[0] ?? '', /prices in \/work\/p\/\.sylvan\/settings\.json were ignored/);
    assert.throws(() => resolvePrices([user({ prices: { x: { input: 'cheap', output: 1 } } })], [], fail), /prices\.x: must be \{ "input": N, "output": N \}/);
  });
});
