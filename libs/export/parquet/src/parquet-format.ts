/** Export format versions: `v1` (the reference product's legacy types, the default) and `v2_beta`. */
export const FORMAT_VERSIONS = ['v1', 'v2_beta'] as const;
export type FormatVersion = (typeof FORMAT_VERSIONS)[number];

/** Export `compression` values as the API takes them. */
export const COMPRESSIONS = ['none', 'gzip', 'snappy', 'zstandard'] as const;
export type Compression = (typeof COMPRESSIONS)[number];

/** Parquet codec names (as in the Parquet thrift `CompressionCodec`). */
export type ParquetCodec = 'UNCOMPRESSED' | 'GZIP' | 'SNAPPY' | 'ZSTD';

const CODECS: Record<Compression, ParquetCodec> = {
  none: 'UNCOMPRESSED',
  gzip: 'GZIP',
  snappy: 'SNAPPY',
  zstandard: 'ZSTD',
};

/** The Parquet codec of an export's `compression` (zstandard→ZSTD, gzip→GZIP, snappy→SNAPPY, none→UNCOMPRESSED). */
export function parquetCodec(compression: Compression): ParquetCodec {
  return CODECS[compression];
}

export function isFormatVersion(value: string): value is FormatVersion {
  return (FORMAT_VERSIONS as readonly string[]).includes(value);
}

export function isCompression(value: string): value is Compression {
  return (COMPRESSIONS as readonly string[]).includes(value);
}
