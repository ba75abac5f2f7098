export * from './contract';
export * from './schemas';
export * from './result';
export * from './client';
