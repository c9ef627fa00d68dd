import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createCurrentTimeTool } from '../../../src/tools/time/current-time.ts';
import { intlTimeZone, localTimeZone } from '../../../src/tools/time/local-time-zone.ts';

const executionOptions = { toolCallId: 'call-1', messages: [], context: {} };
/** Monday 30 November 2026, 07:04:05 UTC. */
const FIXED_INSTANT = new Date('2026-11-30T07:04:05.678Z');

function timeTool(defaultTimeZone?: string) {
  return createCurrentTimeTool({ now: () => FIXED_INSTANT, defaultTimeZone });
}

async function currentTime(timezone: string | undefined, defaultTimeZone = 'Asia/Shanghai'): Promise<string> {
  return String(await timeTool(defaultTimeZone).execute({ timezone }, executionOptions));
}

describe('current_time', () => {
  test('uses the default time zone when none is given', async () => {
    assert.equal(await currentTime(undefined), '2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)');
    assert.equal(await currentTime('  '), '2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)');
  });

  test("falls back to this machine's time zone", async () => {
    const machineZone = localTimeZone();
    const output = String(await timeTool().execute({}, executionOptions));
    assert.ok(output.includes(machineZone), output);
    assert.ok(String(timeTool().description).includes(machineZone));
  });

  test("this machine's zone is read from TZ, else /etc/localtime's link, else Intl", () => {
    const noLink = () => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    assert.equal(localTimeZone({ TZ: 'Asia/Shanghai' }, noLink), 'Asia/Shanghai');
    assert.equal(localTimeZone({ TZ: ':Europe/Paris' }, noLink), 'Europe/Paris');
    assert.equal(localTimeZone({}, () => '/usr/share/zoneinfo/America/Argentina/Buenos_Aires'), 'America/Argentina/Buenos_Aires');
    assert.equal(localTimeZone({}, () => '/var/db/timezone/zoneinfo/Asia/Tokyo'), 'Asia/Tokyo');
    // Not a zone name, or no link: what ICU says.
    assert.equal(localTimeZone({ TZ: '/etc/../weird zone' }, noLink), intlTimeZone());
    assert.equal(localTimeZone({}, noLink), intlTimeZone());
    assert.equal(localTimeZone({}, () => '/etc/some-copied-file'), intlTimeZone());
  });

  test('a machine zone Intl does not know gives the time in the zone Intl reports, not an error', async () => {
    const output = await currentTime(undefined, 'Not/AZone');
    assert.ok(output.includes(intlTimeZone()), output);
    assert.match(output, /^2026-11-30 /);
  });

  test('converts to the requested IANA zone, with its offset at that instant', async () => {
    assert.equal(await currentTime('America/New_York'), '2026-11-30 02:04:05 (Monday), America/New_York (UTC-05:00)');
    assert.equal(await currentTime('Asia/Kolkata'), '2026-11-30 12:34:05 (Monday), Asia/Kolkata (UTC+05:30)');
    assert.equal(await currentTime('asia/shanghai'), '2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)');
  });

  test('crosses the date line into the previous day', async () => {
    assert.equal(await currentTime('Pacific/Pago_Pago'), '2026-11-29 20:04:05 (Sunday), Pacific/Pago_Pago (UTC-11:00)');
  });

  test('follows daylight saving time', async () => {
    const summer = createCurrentTimeTool({ now: () => new Date('2026-07-01T12:00:00Z') });
    const output = await summer.execute({ timezone: 'America/New_York' }, executionOptions);
    assert.equal(output, '2026-07-01 08:00:00 (Wednesday), America/New_York (UTC-04:00)');
  });

  test('accepts common names and fixed offsets', async () => {
    for (const alias of ['Beijing', '北京', 'China', '北京时间', 'Beijing Time']) {
      assert.equal(await currentTime(alias, 'UTC'), '2026-11-30 15:04:05 (Monday), Asia/Shanghai (UTC+08:00)', alias);
    }
    assert.equal(await currentTime('UTC'), '2026-11-30 07:04:05 (Monday), UTC (UTC+00:00)');
    assert.equal(await currentTime('Tokyo'), '2026-11-30 16:04:05 (Monday), Asia/Tokyo (UTC+09:00)');
    assert.equal(await currentTime('UTC+8', 'UTC'), '2026-11-30 15:04:05 (Monday), UTC+08:00');
    assert.equal(await currentTime('GMT-5:30'), '2026-11-30 01:34:05 (Monday), UTC-05:30');
  });

  test('computes fixed offsets itself, so they work where Intl knows no offset zones (Node 20)', async () => {
    assert.equal(await currentTime('+0800'), '2026-11-30 15:04:05 (Monday), UTC+08:00');
    assert.equal(await currentTime('utc+14'), '2026-11-30 21:04:05 (Monday), UTC+14:00');
    assert.equal(await currentTime('GMT-12'), '2026-11-29 19:04:05 (Sunday), UTC-12:00');
    assert.equal(await currentTime('UTC+05:45 time'), '2026-11-30 12:49:05 (Monday), UTC+05:45');
    assert.equal(await currentTime('UTC-0'), '2026-11-30 07:04:05 (Monday), UTC+00:00');
  });

  test('reads the clock on every call', async () => {
    let instant = FIXED_INSTANT.getTime();
    const ticking = createCurrentTimeTool({ now: () => new Date((instant += 60_000)), defaultTimeZone: 'UTC' });
    assert.match(String(await ticking.execute({}, executionOptions)), /^2026-11-30 07:05:05 /);
    assert.match(String(await ticking.execute({}, executionOptions)), /^2026-11-30 07:06:05 /);
  });

  test('tells the model to use an IANA name when the zone is unknown', async () => {
    for (const zone of ['Mars/Olympus', 'UTC+25', 'UTC+15', 'GMT+5:60', 'Atlantis']) {
      await assert.rejects(async () => currentTime(zone), {
        message: `Unknown time zone "${zone}"; use an IANA time zone name such as "Asia/Shanghai", "Europe/London" or "America/New_York", or "UTC".`,
      });
    }
  });
});
