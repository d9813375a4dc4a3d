import { describe, expect, it } from '@jest/globals';
import { loopCpu } from './loop-cpu.js';
import { brokerPorts } from './loop-processes.js';

describe('loopCpu', () => {
  it('when every group used CPU, then the total is the sum per order without the load generator, and the ceiling is cores x 1000 / total', () => {
    const cpu = loopCpu({ orders: 600, inventory: 400, postgres: 1000, kafka: 500, loadGenerator: 900 }, 100, 2, 'loadGenerator');
    expect(cpu.byProcess).toEqual({ orders: 6, inventory: 4, postgres: 10, kafka: 5 });
    expect(cpu.totalMsPerOrder).toBe(25);
    expect(cpu.loadGeneratorMsPerOrder).toBe(9);
    expect(cpu.ceilingPerSec).toBe(80);
  });

  it('when no order finished, then the divisor is one order, never zero', () => {
    expect(loopCpu({ orders: 50 }, 0, 2, 'loadGenerator').totalMsPerOrder).toBe(50);
  });

  it('when a group could not be measured, then the total is NaN, not a smaller made-up sum', () => {
    const cpu = loopCpu({ orders: 600, kafka: Number.NaN }, 100, 2, 'loadGenerator');
    expect(cpu.totalMsPerOrder).toBeNaN();
    expect(cpu.ceilingPerSec).toBeNaN();
  });
});

describe('brokerPorts', () => {
  it('when given a broker list, then it returns each port', () => {
    expect(brokerPorts(['127.0.0.1:9092', 'localhost:19092', '[::1]:29092'])).toEqual([9092, 19092, 29092]);
  });
});
