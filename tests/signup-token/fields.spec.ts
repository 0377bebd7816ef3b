import { clause, test } from '../../harness/fixtures.ts';

// Sections 2.1 (signup token), 2.2 (user) and 2.3 (role): each body is validated once against
// contracts/public-signup-token.schema.json and each error is sorted into the clause it breaks.

for (const id of [
  'signup-token.token.required', 'signup-token.token.types', 'signup-token.token.nullability', 'signup-token.token.date-time',
  'signup-token.user.required', 'signup-token.user.types', 'signup-token.user.nullability', 'signup-token.user.date-time',
  'signup-token.role.required', 'signup-token.role.types', 'signup-token.role.nullability',
]) {
  test(...clause(id), async ({ signupTokens, judge }) => {
    await judge(signupTokens.schema.get(id)!);
  });
}
