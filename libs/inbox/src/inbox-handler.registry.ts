import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { PATTERN_METADATA } from '@nestjs/microservices/constants.js';
import { INBOX_OPTIONS, type InboxHandlerOptions } from './inbox-handler.options.js';

/**
 * Which `@Inbox` handler consumes which topic, read from the controllers' metadata once the app is
 * built. The batch consumer needs it before any handler runs: it claims a whole batch's ids under
 * the handler's consumer name in one statement.
 */
@Injectable()
export class InboxHandlerRegistry implements OnApplicationBootstrap {
  private readonly byTopic = new Map<string, InboxHandlerOptions[]>();

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    this.byTopic.clear();
    for (const wrapper of this.discovery.getControllers()) {
      const prototype = wrapper.instance ? Object.getPrototypeOf(wrapper.instance) : null;
      if (!prototype) continue;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = prototype[name];
        const options = Reflect.getMetadata(INBOX_OPTIONS, method) as InboxHandlerOptions | undefined;
        const patterns = Reflect.getMetadata(PATTERN_METADATA, method) as unknown;
        if (!options || patterns === undefined) continue;
        for (const pattern of Array.isArray(patterns) ? patterns : [patterns]) {
          if (typeof pattern !== 'string') continue;
          this.byTopic.set(pattern, [...(this.byTopic.get(pattern) ?? []), options]);
        }
      }
    }
  }

  /**
   * The options of the one `@Inbox` handler of `topic`; undefined when there is none or several
   * (Nest chains several event handlers of one pattern, each with its own inbox row and
   * transaction: those topics are consumed one message at a time).
   */
  handlerOf(topic: string): InboxHandlerOptions | undefined {
    const handlers = this.byTopic.get(topic);
    return handlers?.length === 1 ? handlers[0] : undefined;
  }
}
