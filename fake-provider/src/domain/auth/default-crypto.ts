/**
 * The backend of providers given none: the platform's (`#platform-crypto`: node:crypto under Node, Web Crypto
 * elsewhere), one shared instance (its caches are weak, so sharing keeps nothing alive).
 */
export { platformCryptoBackend as defaultCryptoBackend } from "#platform-crypto";
