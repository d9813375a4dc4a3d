/** Dead letters of `topic` (`<topic>.dlq`): messages that could not be handled, with the reason in headers. */
export function deadLetterTopic(topic: string): string {
  return `${topic}.dlq`;
}
