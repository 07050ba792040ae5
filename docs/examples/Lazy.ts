import { configureStore } from '@reduxjs/toolkit';
import { createCache, Entity, Lazy } from 'lenscache';

// Each class refers to the other: Lazy defers the schema until it is used.
export class Department extends Entity {
  id = '';
  name = '';
  buildings: string[] = [];
  static override key = 'Department';
  static override schema = { buildings: new Lazy(() => [Building]) };
}
export class Building extends Entity {
  id = '';
  name = '';
  departments: string[] = [];
  static override key = 'Building';
  static override schema = { departments: new Lazy(() => [Department]) };
}

const cache = createCache();
const store = configureStore({
  reducer: { [cache.reducerPath]: cache.reducer },
  middleware: getDefault => getDefault().concat(cache.middleware),
});

export function run() {
  // Writes normalize through the inner schema: the nested buildings go to their own table.
  store.dispatch(
    cache.set(Department, {
      id: 'd1',
      name: 'Physics',
      buildings: [
        { id: 'b1', name: 'North', departments: ['d1'] },
        { id: 'b2', name: 'South', departments: ['d1'] },
      ],
    }),
  );

  const state = store.getState();
  const department = cache.selectQuery(state, Department, 'd1'); // buildings: ['b1', 'b2']
  // `.query` resolves the stored ids when you want the entities.
  const buildings = cache.selectQuery(state, Department.schema.buildings.query, department?.buildings); // Building[]
  const departments = cache.selectQuery(state, Building.schema.departments.query, buildings?.[0]?.departments);
  return {
    ids: department?.buildings, // ['b1', 'b2']
    names: buildings?.map(building => building.name), // ['North', 'South']
    backToDepartments: departments?.map(({ name }) => name), // ['Physics']
  };
}
