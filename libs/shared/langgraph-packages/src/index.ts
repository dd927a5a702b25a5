export * from './deployment-packages';
export * from './find-package';
export * from './share-packages';
export * from './supported-versions';
export * from './version-range';
