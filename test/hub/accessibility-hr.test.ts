// test-engines: sqlite
import { test } from 'node:test';
import { CRAWL_TIMEOUT, crawlSuite } from './accessibility-crawl.ts';

crawlSuite('hr', (crawl) =>
  test(
    'no serious or critical violation, no sideways scrolling, no English in a Croatian hub, on any page at any size',
    { timeout: CRAWL_TIMEOUT },
    crawl,
  ),
);
