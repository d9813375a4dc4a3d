/**
 * `GET /balance` takes no customer: it answers the caller's own (the token's subject). The class
 * stays so that strict validation refuses any query parameter, `customerId` included, with a 400
 * naming it instead of ignoring it.
 */
export class GetBalanceRequest {}
