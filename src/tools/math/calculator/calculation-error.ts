/**
 * A failure inside the calculator. `problem` says what went wrong and `advice` what to do instead;
 * `evaluateExpression` joins them around the quoted expression into one message for the model.
 */
export class CalculationError extends Error {
  readonly problem: string;
  readonly advice: string;

  constructor(problem: string, advice: string) {
    super(`${problem}; ${advice}`);
    this.name = 'CalculationError';
    this.problem = problem;
    this.advice = advice;
  }
}
