import { describe, expect, it } from '@jest/globals';
import { exportedMetricNames, metricNamesIn } from './promql-metric-names.js';

describe('metricNamesIn', () => {
  it('when an expression aggregates, filters and calls functions, then only the metric names remain', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, service) (rate(http_request_duration_seconds_bucket{route!="unmatched"}[5m]))) > 1 and on (service) max without (instance) (up) unless time() - x_total offset 5m',
      ),
    ).toEqual(['http_request_duration_seconds_bucket', 'up', 'x_total']);
  });

  it('when a label value looks like a metric name, then it is not taken for one', () => {
    expect(metricNamesIn('max by (group) (kafka_consumer_lag{topic="orders_total"})')).toEqual(['kafka_consumer_lag']);
  });
});

describe('exportedMetricNames', () => {
  it('when a histogram is declared without samples, then its family and its series names are listed', () => {
    const names = exportedMetricNames('# HELP h_seconds help\n# TYPE h_seconds histogram\n# TYPE c_total counter\nc_total 1\n');
    expect([...names].sort()).toEqual(['c_total', 'h_seconds', 'h_seconds_bucket', 'h_seconds_count', 'h_seconds_sum']);
  });
});
