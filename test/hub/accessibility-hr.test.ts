// test-engines: sqlite
import { crawlSuite } from './accessibility-crawl.ts';

crawlSuite('hr');
