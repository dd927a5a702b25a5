export * from './oauth.types';
export * from './oauth.store';
export * from './prisma-oauth.store';
export * from './oauth-context';
export * from './providers.usecases';
export * from './authenticate.usecase';
export * from './callback.usecase';
export * from './wait.usecase';
export { exchangeCode, type TokenResponse } from './token-exchange';
