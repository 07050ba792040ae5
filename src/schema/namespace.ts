/** The `schema` namespace export: `import { schema } from 'lenscache'; new schema.All(User)`. */
export { All } from './All.js';
export { Collection } from './Collection.js';
export { Entity } from './Entity.js';
export { Invalidate } from './Invalidate.js';
export { Lazy } from './Lazy.js';
export { Query } from './Query.js';
export { Scalar } from './Scalar.js';
export { Union } from './Union.js';
export { Values } from './Values.js';
