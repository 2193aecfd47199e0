export {
  startTestOidcProvider,
  testRoleSettings,
  testUsers,
  type TestOidcOptions,
  type TestOidcProvider,
  type TestUser,
} from './test-oidc-provider.js';
