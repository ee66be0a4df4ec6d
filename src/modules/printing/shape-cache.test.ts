// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHAPE_GENERATION_WORDS, recipeOf, rememberShape, type ShapeRecipe, type ShapingFace } from './shape-cache.ts';

const recipe = (id: number): ShapeRecipe => ({ calls: [], ids: [id], positions: [], advanceWidth: id });

/**
 * Issue 37, item 10: a print thread's word recipes are bounded by two generations, so a month of
 * invoices, each with numbers, dates and amounts of its own, cannot grow the thread's heap, while
 * the words every document uses stay shaped.
 */
test('recipes: a recurring word stays across any number of documents, a word not seen for two generations goes', () => {
  const face: ShapingFace = { replayable: new Set(), shapes: new Map(), olderShapes: new Map() };
  rememberShape(face, 'Ukupno', recipe(1));
  rememberShape(face, 'once', recipe(2));
  let most = 0;
  for (let doc = 0; doc < 10_000; doc++) {
    // Each document: its own number, date and amount, and the label every invoice prints.
    for (const word of [`${doc + 1}/B/1`, `${doc % 28}.11.2026.`, `${doc},00`]) {
      if (!recipeOf(face, word)) rememberShape(face, word, recipe(doc));
    }
    assert.equal(recipeOf(face, 'Ukupno')?.advanceWidth, 1, `document ${doc}`);
    most = Math.max(most, face.shapes.size + face.olderShapes.size);
  }
  assert.ok(most <= 2 * SHAPE_GENERATION_WORDS, `at most two generations of words (${most})`);
  assert.equal(recipeOf(face, 'once'), undefined, 'a word used once, long ago, is gone');
  assert.equal(recipeOf(face, '10000/B/1')?.advanceWidth, 9_999, 'the newest are kept');
});
