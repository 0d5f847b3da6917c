// The platform client: public API of src/api/.
export * from './errors.js';
export * from './urls.js';
export * from './schemas.js';
export * from './HttpClient.js';
export * from './credentials.js';
export * from './paginate.js';
export * from './OctopusClient.js';
export * from './tariffCodes.js';
