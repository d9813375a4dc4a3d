import { describe, expect, it } from '@jest/globals';
import { envDefault } from '@libs/config';
import { kafkaEnv } from '@libs/kafka';
import { topicPartitionsOf } from './consumer-group-position.js';

/** The partitions the test stack gives a consumed topic it creates before the app starts: the app's own. */
describe('topicPartitionsOf', () => {
  it("when the app's environment does not set KAFKA_TOPIC_PARTITIONS, then it is the app's own default", () => {
    expect(topicPartitionsOf({})).toBe(envDefault(kafkaEnv('any').KAFKA_TOPIC_PARTITIONS));
  });

  it('when the environment sets KAFKA_TOPIC_PARTITIONS (a bench run with BENCH_APP_ENV), then the topic gets that many', () => {
    expect(topicPartitionsOf({ KAFKA_TOPIC_PARTITIONS: '1' })).toBe(1);
    expect(topicPartitionsOf({ KAFKA_TOPIC_PARTITIONS: '12' })).toBe(12);
  });

  it('when the value is one the app would refuse, then it is refused here too, naming the variable', () => {
    expect(() => topicPartitionsOf({ KAFKA_TOPIC_PARTITIONS: '0' })).toThrow(/KAFKA_TOPIC_PARTITIONS/);
  });
});
