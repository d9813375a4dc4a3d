/**
 * The lines of a process's output that mention `text`, each parsed when it is a JSON log line and
 * kept as text otherwise: a test asserts that the only mentions of a message are the inbox's
 * `message handled` lines with the outcome it expects, and no warning, error or stray text.
 */
export function logLinesMentioning(output: string, text: string): unknown[] {
  return output
    .split('\n')
    .filter((line) => line.includes(text))
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
}
