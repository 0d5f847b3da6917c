// `node dist/src/store/buildWarehouseTemplate.js`, run by `npm run build` and `prepare`: writes
// dist/warehouse-template.duckdb, a warehouse with every migration and definition applied, which a
// new file starts as a copy of (Warehouse.open). Made under a temporary name and renamed into
// place; if it cannot be made, a warning, and the build goes on without it.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { warehouseTemplatePath } from '../paths.js';
import { Warehouse } from './Warehouse.js';

export async function buildWarehouseTemplate(target = warehouseTemplatePath(), sqlDirectory?: string): Promise<string> {
  const building = `${target}.${process.pid}.tmp`;
  const clear = () => {
    rmSync(building, { force: true });
    rmSync(`${building}.wal`, { force: true });
  };
  clear();
  try {
    const warehouse = await Warehouse.open(building, { template: false, sqlDirectory });
    warehouse.close();
    // closed after a checkpoint: everything is in the file itself
    if (existsSync(`${building}.wal`)) throw new Error(`${building}.wal remained after closing`);
    renameSync(building, target);
    return target;
  } finally {
    clear();
  }
}

if (process.argv[1]?.endsWith('buildWarehouseTemplate.js')) {
  // The template only saves time: without it a new file is made statement by statement, so a
  // failure here must not fail `npm ci`.
  try {
    await buildWarehouseTemplate();
  } catch (error) {
    process.stderr.write(`tariffs: no warehouse template (new files will be made without it): ${(error as Error).message}\n`);
  }
}
