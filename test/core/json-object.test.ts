// One JSON text read as one object, or null (core/json-object.ts).
import t from 'tap';
import { jsonObject } from '../../src/core/json-object.js';

t.test('an object, or null for anything else', async (t) => {
  t.same(jsonObject('{"t":"input","data":"x"}'), { t: 'input', data: 'x' });
  t.same(jsonObject(' {} '), {});
  for (const text of ['', 'not json', '{"t":', '[1,2]', '"a string"', '42', 'null', 'true'])
    t.equal(jsonObject(text), null, JSON.stringify(text));
});
