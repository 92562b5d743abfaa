// The one host API core may use, declared for core's own compiler settings (src/core/tsconfig.json), which
// have no Node types and no DOM: UTF-8 encoding and decoding, pure functions of bytes that every JavaScript
// runtime has. Only what core calls is declared. The other configs get these from @types/node and exclude
// this folder.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
