import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Datasheet PDFs on disk under the data directory. The database keeps only the relative
 * name, so the data directory can move.
 */
export interface DatasheetFiles {
  write(companyId: string, productId: string, bytes: Buffer): Promise<string>;
  read(file: string): Promise<Buffer | null>;
  /** Its size in bytes without reading it; null when it is missing. */
  size(file: string): Promise<number | null>;
}

/**
 * The name a datasheet is served under: `{product}.pdf`, the product's SKU when it has one
 * (what a customer recognises), else its id; never the name it was uploaded with, which is the
 * uploader's to choose (`../../x.html`).
 */
export function datasheetFileName(product: { id: string; sku: string | null }): string {
  const sku = (product.sku ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .slice(0, 100);
  return `${sku || product.id}.pdf`;
}

export function createDatasheetFiles(dataDir: string): DatasheetFiles {
  const root = path.join(dataDir, 'datasheets');
  return {
    async write(companyId, productId, bytes) {
      const relative = path.join(companyId, `${productId}.pdf`);
      const target = path.join(root, relative);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const temp = `${target}.${process.pid}.tmp`;
      await fs.writeFile(temp, bytes);
      await fs.rename(temp, target);
      return relative;
    },
    async read(file) {
      const target = path.resolve(root, file);
      if (!target.startsWith(root + path.sep)) return null;
      try {
        return await fs.readFile(target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async size(file) {
      const target = path.resolve(root, file);
      if (!target.startsWith(root + path.sep)) return null;
      try {
        return (await fs.stat(target)).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
