// test-engines: sqlite
import { test } from 'node:test';
import { CRAWL_TIMEOUT, crawlSuite } from './accessibility-crawl.ts';

crawlSuite('de', (crawl) =>
  test(
    'the same as a German reader: the admin chose German, every page in German, none wider, none with English',
    { timeout: CRAWL_TIMEOUT },
    crawl,
  ),
);
