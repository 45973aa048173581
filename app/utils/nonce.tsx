import { createContext, useContext } from "react";

/**
 * The CSP nonce of the page being rendered (entry.server makes one per request). On the client it is
 * empty: the browser hides nonces from the DOM and the scripts are already in place.
 */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
