import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCalculatorTool, evaluateExpression } from '../../../src/tools/math/calculator.ts';

/** Asserts that evaluating `expression` fails with a message matching every pattern. */
function assertRejects(expression: string, ...patterns: RegExp[]): void {
  assert.throws(
    () => evaluateExpression(expression),
    (error: unknown) => {
      assert.ok(error instanceof Error);
      for (const pattern of patterns) assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('evaluateExpression', () => {
  test('respects precedence and parentheses', () => {
    assert.equal(evaluateExpression('(2+3)*4'), '20');
    assert.equal(evaluateExpression('2+3*4'), '14');
    assert.equal(evaluateExpression('10 - 4 - 3'), '3');
    assert.equal(evaluateExpression('100 / 10 / 5'), '2');
    assert.equal(evaluateExpression('1+-2'), '-1');
    assert.equal(evaluateExpression('--2'), '2');
    assert.equal(evaluateExpression('+5'), '5');
  });

  test('a product or quotient on the left binds before the sum that follows it', () => {
    assert.equal(evaluateExpression('2*3+4'), '10');
    assert.equal(evaluateExpression('2*3-4'), '2');
    assert.equal(evaluateExpression('8/2+2'), '6');
    assert.equal(evaluateExpression('2*3+4*5'), '26');
    assert.equal(evaluateExpression('7 mod 4 + 1'), '4');
    assert.equal(evaluateExpression('-2*3+10'), '4');
  });

  test('computes decimals exactly, without float noise', () => {
    assert.equal(evaluateExpression('0.1+0.2'), '0.3');
    assert.equal(evaluateExpression('1 - 0.9'), '0.1');
    assert.equal(evaluateExpression('3 * 1.1'), '3.3');
    assert.equal(evaluateExpression('.5 + 2.5e-3'), '0.5025');
    assert.equal(evaluateExpression('10 / 4'), '2.5');
  });

  test('rounds non-terminating results to 12 significant digits', () => {
    assert.equal(evaluateExpression('1/3'), '0.333333333333');
    assert.equal(evaluateExpression('2/3'), '0.666666666667');
    assert.equal(evaluateExpression('100/3'), '33.3333333333');
    assert.equal(evaluateExpression('sqrt(2)'), '1.41421356237');
  });

  test('prints large integers in full instead of 1e+21 notation', () => {
    assert.equal(evaluateExpression('1e20'), '100000000000000000000');
    assert.equal(evaluateExpression('999999999999999999 + 1'), '1000000000000000000');
    assert.equal(evaluateExpression('2^64'), '18446744073709551616');
    assert.equal(
      evaluateExpression('123456789012345678901234567890 * 2'),
      '246913578024691357802469135780',
    );
    assert.equal(evaluateExpression('2^10000'), '1.99506311688e+3010');
  });

  test('uses scientific notation only for very small or non-integer huge values', () => {
    assert.equal(evaluateExpression('1e-7'), '1e-7');
    assert.equal(evaluateExpression('0.000001'), '0.000001');
    assert.equal(evaluateExpression('1/7 * 1e-10'), '1.42857142857e-11');
    assert.equal(evaluateExpression('1.5e300 * 1e300'), '1.5e+600');
  });

  test('powers are right-associative and bind tighter than unary minus', () => {
    assert.equal(evaluateExpression('-2^2'), '-4');
    assert.equal(evaluateExpression('(-2)^2'), '4');
    assert.equal(evaluateExpression('2^3^2'), '512');
    assert.equal(evaluateExpression('2**10'), '1024');
    assert.equal(evaluateExpression('2^-1'), '0.5');
    assert.equal(evaluateExpression('4^0.5'), '2');
    assert.equal(evaluateExpression('0^0'), '1');
  });

  test('reads % after a number as percent and mod as remainder', () => {
    assert.equal(evaluateExpression('50%'), '0.5');
    assert.equal(evaluateExpression('200 * 15%'), '30');
    assert.equal(evaluateExpression('1299 * 85%'), '1104.15');
    assert.equal(evaluateExpression('10 mod 3'), '1');
    assert.equal(evaluateExpression('-7 mod 3'), '2');
    assert.equal(evaluateExpression('5.5 MOD 2'), '1.5');
  });

  test('supports the listed functions and constants', () => {
    assert.equal(evaluateExpression('sqrt(16)'), '4');
    assert.equal(evaluateExpression('sqrt(0.25)'), '0.5');
    assert.equal(evaluateExpression('cbrt(-27)'), '-3');
    assert.equal(evaluateExpression('abs(-3.5)'), '3.5');
    assert.equal(evaluateExpression('round(2.5)'), '3');
    assert.equal(evaluateExpression('round(-2.5)'), '-3');
    assert.equal(evaluateExpression('round(2.675, 2)'), '2.68');
    assert.equal(evaluateExpression('round(1234, -2)'), '1200');
    assert.equal(evaluateExpression('floor(-2.5)'), '-3');
    assert.equal(evaluateExpression('ceil(2.1)'), '3');
    assert.equal(evaluateExpression('ln(e^3)'), '3');
    assert.equal(evaluateExpression('floor(ln(e^3))'), '3');
    assert.equal(evaluateExpression('log(1000)'), '3');
    assert.equal(evaluateExpression('log(10^400)'), '400');
    assert.equal(evaluateExpression('log2(8)'), '3');
    assert.equal(evaluateExpression('exp(0)'), '1');
    assert.equal(evaluateExpression('sin(pi/6)'), '0.5');
    assert.equal(evaluateExpression('sin(pi)'), '0');
    assert.equal(evaluateExpression('cos(pi/2)'), '0');
    assert.equal(evaluateExpression('tan(pi/4)'), '1');
    assert.equal(evaluateExpression('min(3, 1, 2)'), '1');
    assert.equal(evaluateExpression('max(3, 1.5, -2, 7)'), '7');
    assert.equal(evaluateExpression('pow(2, 10)'), '1024');
    assert.equal(evaluateExpression('PI'), '3.14159265359');
    assert.equal(evaluateExpression('e'), '2.71828182846');
  });

  test('accepts unicode operators and full-width characters', () => {
    assert.equal(evaluateExpression('6 × 7'), '42');
    assert.equal(evaluateExpression('10 ÷ 4'), '2.5');
    assert.equal(evaluateExpression('5 − 3'), '2');
    assert.equal(evaluateExpression('（２＋３）×４'), '20');
  });

  test('rejects division by zero with the expression quoted', () => {
    assert.throws(() => evaluateExpression('1/0'), {
      message: 'Division by zero in "1/0"; check the expression.',
    });
    assertRejects('5 / (2 - 2)', /^Division by zero/);
    assertRejects('1 mod 0', /^Division by zero/);
    assertRejects('0^-1', /^Division by zero/);
  });

  test('rejects garbage with its position', () => {
    assertRejects('2 $ 3', /Unexpected character "\$" at position 3 in "2 \$ 3"/);
    assertRejects('2+3)', /Unexpected "\)" at position 4/, /no matching "\("/);
    assertRejects('(2+3', /Missing "\)" for the "\(" at position 1/);
    assertRejects('2+', /ends too early/);
    assertRejects('2 * * 3', /Unexpected "\*" at position 5/);
    assertRejects('2=2', /Unexpected character "=" at position 2/, /without "="/);
  });

  test('explains the usual slips', () => {
    assertRejects('10 % 3', /Unexpected "3" at position 6/, /a mod b/);
    assertRejects('1,000', /thousands separators/);
    assertRejects('2pi', /write "\*" for multiplication/);
    assertRejects('sqrt', /Function "sqrt" at position 1 has no parentheses/, /sqrt\(x\)/);
    assertRejects('round(1, 2, 3)', /round was given 3 arguments/, /round\(x\) or round\(x, digits\)/);
    assertRejects('min()', /min was given 0 arguments/);
  });

  test('names the known functions when an unknown one is called', () => {
    assertRejects('sqr(4)', /Unknown function "sqr" at position 1/, /known functions: sqrt, cbrt, abs,.* pow/);
    assertRejects('x + 1', /Unknown name "x" at position 1/, /no variables/, /pi, e/);
  });

  test('rejects empty, over-long and over-nested expressions', () => {
    assertRejects('', /empty/);
    assertRejects('   ', /empty/);
    assertRejects('1+'.repeat(250) + '1', /501 characters/, /limit of 500/);
    assert.equal(evaluateExpression('('.repeat(100) + '1' + ')'.repeat(100)), '1');
    assertRejects('('.repeat(101) + '1' + ')'.repeat(101), /nests deeper than 100 levels/);
    assertRejects('-'.repeat(101) + '1', /nests deeper than 100 levels/);
  });

  test('rejects results that are not finite real numbers instead of printing NaN', () => {
    assertRejects('sqrt(-1)', /sqrt of a negative number \(-1\) has no real result in "sqrt\(-1\)"/);
    assertRejects('ln(0)', /ln is only defined for positive numbers, but got 0/);
    assertRejects('log(-5)', /log is only defined for positive numbers/);
    assertRejects('(-8)^(1/3)', /no real result/, /cbrt/);
    assertRejects('exp(1000)', /too large to represent/);
    assertRejects('2^2^2^2^2', /too large to represent/);
    assertRejects('1e5000', /out of range/);
  });

  test('never evaluates code', () => {
    assertRejects('process.exit(1)', /Unexpected character "\."|Unknown/);
    assertRejects('constructor', /Unknown name "constructor"/);
    assertRejects('toString(1)', /Unknown function "toString"/);
  });
});

describe('calculate tool', () => {
  const calculator = createCalculatorTool();
  const executionOptions = { toolCallId: 'call-1', messages: [], context: {} };

  test('returns the expression with its result', async () => {
    const output = await calculator.execute({ expression: ' (2+3)*4 ' }, executionOptions);
    assert.equal(output, '(2+3)*4 = 20');
  });

  test('throws a model-readable error', async () => {
    await assert.rejects(async () => calculator.execute({ expression: '1/0' }, executionOptions), {
      message: 'Division by zero in "1/0"; check the expression.',
    });
  });

  test('tells the model to use it for arithmetic and lists the syntax', () => {
    const description = String(calculator.description);
    assert.match(description, /ANY arithmetic/);
    for (const syntax of ['mod', '%', 'sqrt', 'round', 'pi', '^']) {
      assert.ok(description.includes(syntax), syntax);
    }
  });
});
