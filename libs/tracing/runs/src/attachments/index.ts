export * from './run-attachment';
export * from './run-attachments.repository';
export * from './attachment-links';
export * from './attachment-urls';
export * from './download-attachment.usecase';
