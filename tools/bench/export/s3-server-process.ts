// s3rver in a process of its own for the end-to-end benchmark (so its file writes do not share the tracing
// server's event loop). Answers { endpoint, directory } over IPC; closes when the parent disconnects.
import { startTestS3Server } from '@platform/export-s3/testing';

startTestS3Server({ buckets: ['bench'] }).then(
  (s3) => {
    process.send?.({ endpoint: s3.endpoint, directory: s3.directory });
    process.on('disconnect', () => void s3.close().finally(() => process.exit(0)));
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
