/** The logo's box: as large as fits `maxWidth` × `maxHeight` points, its proportions kept (the writer draws no `fit`). */
export function logoBox(logo: { width: number; height: number }, maxWidth: number, maxHeight: number) {
  const scale = Math.min(maxWidth / logo.width, maxHeight / logo.height);
  return { width: logo.width * scale, height: logo.height * scale };
}
