import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createWeatherTool } from '../../../src/tools/weather/weather.ts';

type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;

/** A fetch that records every URL it is asked for and answers through `handler`; never the network. */
function fakeFetch(handler: Handler): { fetch: typeof globalThis.fetch; requests: URL[] } {
  const requests: URL[] = [];
  const fetchFunction = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(url);
    return handler(url, init);
  };
  return { fetch: fetchFunction as typeof globalThis.fetch, requests };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const BEIJING = {
  name: '北京',
  latitude: 39.9075,
  longitude: 116.39723,
  country: '中国',
  admin1: '北京市',
  timezone: 'Asia/Shanghai',
};

const FORECAST = {
  latitude: 39.875,
  longitude: 116.375,
  timezone: 'Asia/Shanghai',
  current_units: { temperature_2m: '°C', wind_speed_10m: 'km/h' },
  current: {
    time: '2026-11-30T14:00',
    interval: 900,
    temperature_2m: 21.3,
    apparent_temperature: 19.6,
    relative_humidity_2m: 40,
    wind_speed_10m: 12.2,
    wind_direction_10m: 310,
    weather_code: 2,
    uv_index: 4.8,
  },
};

/** Answers the place search with `places[language]` and the forecast with `forecast`. */
function openMeteo(places: { zh?: unknown[]; en?: unknown[] }, forecast: unknown = FORECAST): Handler {
  return (url) => {
    if (url.hostname === 'geocoding-api.open-meteo.com') {
      const results = places[url.searchParams.get('language') as 'zh' | 'en'];
      return json(results === undefined ? { generationtime_ms: 0.5 } : { results });
    }
    if (url.hostname === 'api.open-meteo.com') return json(forecast);
    return new Response('not found', { status: 404 });
  };
}

const executionOptions = { toolCallId: 'call-1', messages: [], context: {} };

describe('get_weather, live', () => {
  test('geocodes the city, then fetches current conditions for its coordinates', async () => {
    const { fetch, requests } = fakeFetch(openMeteo({ zh: [BEIJING] }));
    const weather = createWeatherTool({ source: 'live', fetch });

    const output = await weather.execute({ city: '北京' }, executionOptions);

    assert.equal(requests.length, 2);
    const [geocoding, forecast] = requests;
    assert.ok(geocoding !== undefined && forecast !== undefined);
    assert.equal(geocoding.origin + geocoding.pathname, 'https://geocoding-api.open-meteo.com/v1/search');
    assert.equal(geocoding.searchParams.get('name'), '北京');
    assert.equal(geocoding.searchParams.get('count'), '1');
    assert.equal(geocoding.searchParams.get('language'), 'zh');
    assert.equal(forecast.origin + forecast.pathname, 'https://api.open-meteo.com/v1/forecast');
    assert.equal(forecast.searchParams.get('latitude'), '39.9075');
    assert.equal(forecast.searchParams.get('longitude'), '116.39723');
    assert.equal(forecast.searchParams.get('timezone'), 'auto');
    assert.deepEqual(forecast.searchParams.get('current')?.split(','), [
      'temperature_2m',
      'apparent_temperature',
      'relative_humidity_2m',
      'wind_speed_10m',
      'wind_direction_10m',
      'weather_code',
      'uv_index',
    ]);
    assert.equal(
      output,
      '北京, 中国: Partly cloudy, 21°C (feels like 20°C), humidity 40%, wind 12 km/h from the NW, UV index 5. Observed 2026-11-30T14:00 local time (Asia/Shanghai).',
    );
  });

  test('shows the user\'s spelling next to a translated place name', async () => {
    const { fetch } = fakeFetch(openMeteo({ zh: [BEIJING] }));
    const output = await createWeatherTool({ source: 'live', fetch }).execute({ city: 'Beijing' }, executionOptions);
    assert.match(String(output), /^北京 \(Beijing\), 中国: Partly cloudy, 21°C/);
  });

  test('retries the place search in English when the Chinese search finds nothing', async () => {
    const springfield = { name: 'Springfield', latitude: 39.8, longitude: -89.64, country: 'United States', admin1: 'Illinois' };
    const { fetch, requests } = fakeFetch(openMeteo({ en: [springfield] }));
    const output = await createWeatherTool({ source: 'live', fetch }).execute({ city: 'Springfield' }, executionOptions);
    assert.deepEqual(
      requests.map((url) => url.searchParams.get('language')),
      ['zh', 'en', null],
    );
    assert.match(String(output), /^Springfield, Illinois, United States: Partly cloudy/);
  });

  test('leaves out values the service did not report', async () => {
    const forecast = { ...FORECAST, current: { ...FORECAST.current, uv_index: null, apparent_temperature: null } };
    const { fetch } = fakeFetch(openMeteo({ zh: [BEIJING] }, forecast));
    const output = String(await createWeatherTool({ source: 'live', fetch }).execute({ city: '北京' }, executionOptions));
    assert.doesNotMatch(output, /UV index|feels like|null|undefined|NaN/);
    assert.match(output, /21°C, humidity 40%/);
  });

  test('tells the model to ask the user when no place matches', async () => {
    const { fetch, requests } = fakeFetch(openMeteo({}));
    const weather = createWeatherTool({ source: 'live', fetch });
    await assert.rejects(async () => weather.execute({ city: 'Atlantis' }, executionOptions), {
      message: 'No place called "Atlantis" was found; ask the user to check the spelling or give a nearby larger city.',
    });
    assert.equal(requests.length, 2, 'one search in Chinese, one in English, no forecast');
  });

  test('reports an HTTP error as unavailable weather, not as a guess', async () => {
    const { fetch } = fakeFetch((url) =>
      url.hostname === 'api.open-meteo.com'
        ? json({ error: true, reason: 'Internal error' }, 500)
        : openMeteo({ zh: [BEIJING] })(url, undefined),
    );
    const weather = createWeatherTool({ source: 'live', fetch });
    await assert.rejects(
      async () => weather.execute({ city: '北京' }, executionOptions),
      /^Error: Weather data is unavailable right now \(the weather service answered HTTP 500 \(Internal error\)\)\..*do not guess or invent it\.$/,
    );
  });

  test('reports a network failure as unavailable weather', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const weather = createWeatherTool({ source: 'live', fetch });
    await assert.rejects(
      async () => weather.execute({ city: 'Beijing' }, executionOptions),
      /Weather data is unavailable right now \(could not reach the weather service: fetch failed\).*do not guess or invent/,
    );
  });

  test('reports a malformed reply as unavailable weather', async () => {
    const { fetch } = fakeFetch(openMeteo({ zh: [BEIJING] }, { current: { time: '2026-11-30T14:00' } }));
    const weather = createWeatherTool({ source: 'live', fetch });
    await assert.rejects(async () => weather.execute({ city: '北京' }, executionOptions), /Weather data is unavailable right now/);
  });

  test('gives up after the timeout', async () => {
    const { fetch } = fakeFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          // A real request holds a socket open meanwhile; without a handle of its own, the test's
          // process could run out of work before the tool's (unreferenced) timeout fires.
          const socket = setTimeout(() => {}, 60_000);
          init?.signal?.addEventListener('abort', () => {
            clearTimeout(socket);
            reject(init.signal?.reason);
          });
        }),
    );
    const weather = createWeatherTool({ source: 'live', fetch, timeoutMs: 1 });
    await assert.rejects(
      async () => weather.execute({ city: '北京' }, executionOptions),
      /Weather data is unavailable right now \(the weather service did not answer within 0\.001 s\)/,
    );
  });

  test('stops when the turn is aborted and passes the abort on', async () => {
    const controller = new AbortController();
    const { fetch, requests } = fakeFetch((_url, init) => {
      controller.abort();
      return Promise.reject(init?.signal?.reason);
    });
    const weather = createWeatherTool({ source: 'live', fetch });
    await assert.rejects(
      async () => weather.execute({ city: '北京' }, { ...executionOptions, abortSignal: controller.signal }),
      { name: 'AbortError' },
    );
    assert.equal(requests.length, 1);
  });

  test('describes itself as live and forbids inventing weather', () => {
    const description = String(createWeatherTool({ source: 'live' }).description);
    assert.match(description, /live from Open-Meteo/);
    assert.match(description, /never guess or invent weather/);
  });
});

describe('get_weather, sample', () => {
  const { fetch, requests } = fakeFetch(() => {
    throw new Error('sample mode must not use the network');
  });
  const weather = createWeatherTool({ source: 'sample', fetch });

  test('answers the sample cities by English or Chinese name, marked as sample data', async () => {
    const expectations: Array<[string, RegExp]> = [
      ['Beijing', /^Beijing \(北京\), China \(sample data, not live\): Mainly clear, 12°C/],
      ['北京', /^Beijing \(北京\), China \(sample data/],
      ['北京市', /^Beijing \(北京\), China \(sample data/],
      ['Beijing City', /^Beijing \(北京\), China \(sample data/],
      ['  SHANGHAI ', /^Shanghai \(上海\), China \(sample data/],
      ['广州', /^Guangzhou \(广州\)/],
      ['深圳', /^Shenzhen \(深圳\)/],
      ['杭州', /^Hangzhou \(杭州\)/],
      ['chengdu', /^Chengdu \(成都\)/],
      ['东京', /^Tokyo \(东京\), Japan/],
      ['New York City', /^New York \(纽约\), United States \(sample data, not live\): Moderate snowfall, -2°C/],
      ['纽约', /^New York \(纽约\)/],
      ['伦敦', /^London \(伦敦\), United Kingdom/],
      ['San Francisco, CA', /^San Francisco \(旧金山\)/],
      ['旧金山', /^San Francisco \(旧金山\)/],
    ];
    for (const [city, expected] of expectations) {
      const output = String(await weather.execute({ city }, executionOptions));
      assert.match(output, expected, city);
      assert.match(output, /not current weather/, city);
    }
    assert.equal(requests.length, 0);
  });

  test('refuses other cities, listing the samples and how to get live weather', async () => {
    await assert.rejects(
      async () => weather.execute({ city: 'Paris' }, executionOptions),
      (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, /^There is no sample weather for "Paris"/);
        assert.match(error.message, /Beijing \(北京\), Shanghai \(上海\),.*San Francisco \(旧金山\)/);
        assert.match(error.message, /SYLVAN_WEATHER=live/);
        assert.match(error.message, /do not invent weather/);
        return true;
      },
    );
    assert.equal(requests.length, 0);
  });

  test('says in its description that the data is sample data', () => {
    const description = String(weather.description);
    assert.match(description, /SAMPLE weather/);
    assert.match(description, /Tokyo \(东京\)/);
  });
});
