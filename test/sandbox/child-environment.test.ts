import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { childEnvironment } from '../../src/tools/shell/child-environment.ts';

// Failure 1 of issue 22: credentials without a _KEY/_TOKEN/_SECRET suffix reached every command.
describe('a command gets no credential variable', () => {
  const held = 'sk-held-by-sylvan-0123456789';
  const environment = {
    PATH: '/usr/bin',
    PWD: '/work',
    OLDPWD: '/',
    GIT_AUTHOR_NAME: 'Ada',
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE123',
    PGPASSWORD: 'pg-secret-1',
    MYSQL_PWD: 'mysql-secret-2',
    SMTP_PASSWORD: 'smtp-secret-3',
    npm_config__authToken: 'npm-secret-4',
    DATABASE_URL: 'postgres://app:db-secret-5@db.internal:5432/app',
    OPENAI_API_KEY_2: 'sk-second-6',
    GOOGLE_APPLICATION_CREDENTIALS: '/home/ada/creds.json',
    REGISTRY_AUTH: 'basic-7',
    INNOCENT_LOOKING: held,
    PUBLIC_URL: 'https://example.com/app',
    SYLVAN_MODEL: 'qwen-plus',
  };
  const kept = childEnvironment(environment, [held]);

  for (const name of [
    'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'PGPASSWORD', 'MYSQL_PWD', 'SMTP_PASSWORD', 'npm_config__authToken', 'DATABASE_URL',
    'OPENAI_API_KEY_2', 'GOOGLE_APPLICATION_CREDENTIALS', 'REGISTRY_AUTH', 'INNOCENT_LOOKING', 'SYLVAN_MODEL',
  ]) {
    test(`${name} is withheld`, () => assert.equal(kept[name], undefined));
  }

  test('ordinary variables stay: PATH, PWD, OLDPWD, GIT_AUTHOR_NAME, a URL without a password', () => {
    assert.deepEqual(
      { PATH: kept.PATH, PWD: kept.PWD, OLDPWD: kept.OLDPWD, GIT_AUTHOR_NAME: kept.GIT_AUTHOR_NAME, PUBLIC_URL: kept.PUBLIC_URL },
      { PATH: '/usr/bin', PWD: '/work', OLDPWD: '/', GIT_AUTHOR_NAME: 'Ada', PUBLIC_URL: 'https://example.com/app' },
    );
  });
});
