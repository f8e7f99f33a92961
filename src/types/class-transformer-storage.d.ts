/** class-transformer's metadata storage: its types live apart from its CommonJS build. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
