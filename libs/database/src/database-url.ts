/** Returns the server URL pointed at one database: `postgres://host:5432` + `orders`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
