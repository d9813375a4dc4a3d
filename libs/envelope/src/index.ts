export { Headers, DEAD_LETTER_HEADER_PREFIX, DeadLetterHeaders, DeadLetterStubHeaders } from './headers.js';
export { CodedError, type ErrorCode } from './coded.error.js';
export { headerText } from './header-text.js';
export { deadLetterTopic } from './dead-letter-topic.js';
export { canonicalJson } from './canonical-json.js';
export { payloadHash } from './payload-hash.js';
export {
  jsonSchemaOf,
  schemaProblems,
  type JsonSchemaTarget,
  type StandardSchemaV1,
  type StandardResult,
  type StandardIssue,
} from './standard-schema.js';
export type { MessageDeclaration } from './message-declaration.js';
export { checkEnvelope, type EnvelopeCheck, type InvalidReason, type ValidMessage } from './envelope-check.js';
export { aggregateIdentityProblem } from './aggregate-identity.js';
export {
  signatureHeaders,
  signatureProblem,
  SIGNED_HEADERS,
  type SignedParts,
  type SigningKey,
  type VerifyKey,
} from './message-signature.js';
export {
  messageSigning,
  messageSigningEnv,
  messageVerification,
  messageVerificationEnv,
  type MessageSigning,
  type MessageSigningConfig,
  type MessageVerification,
  type MessageVerificationConfig,
} from './message-signing.config.js';
export { newSigningKeyPair, signingKeyEnv, verifyKeyEntry, type SigningKeyPair } from './signing-key-pair.js';
