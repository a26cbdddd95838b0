export { classify, HEAD_BYTES, type Classified } from './classify';
export { ContentProblem, type StreamScan, type StructureCheck } from './content-problem';
export { displayName, extensionOf } from './filename';
export { ContentInspector, formatSize, tooLarge } from './inspector';
export { ACCEPTED_TYPES_SENTENCE, contentTypeOf, KIND_NAMES, quoted, refused } from './kinds';
export { SNIFF_BYTES } from './sniff';
export { ZIP_TAIL_BYTES, type ZipLimits } from './zip-check';
