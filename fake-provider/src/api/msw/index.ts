export { fakeProviderHandlers, type FakeProviderHandlers, type FakeProviderHandlersOptions } from "./handlers.ts";
