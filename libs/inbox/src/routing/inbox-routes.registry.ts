import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { AppConsumes } from './consumed-topic.declaration.js';
import type { InboxRoute } from './inbox.route.js';

export const INBOX_CONSUMES = Symbol('INBOX_CONSUMES');

/**
 * The app's consumed topics with their handler and lock providers resolved from its module graph,
 * once the app is built: what the Kafka server subscribes to and routes each batch by.
 */
@Injectable()
export class InboxRoutes implements OnApplicationBootstrap {
  private readonly byTopic = new Map<string, InboxRoute>();

  constructor(
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(INBOX_CONSUMES) private readonly consumes: AppConsumes,
  ) {}

  onApplicationBootstrap(): void {
    this.byTopic.clear();
    for (const consumed of this.consumes) {
      this.byTopic.set(
        consumed.topic,
        consumed.route((type) => this.moduleRef.get(type, { strict: false })),
      );
    }
  }

  topics(): string[] {
    return [...this.byTopic.keys()];
  }

  routeOf(topic: string): InboxRoute {
    const route = this.byTopic.get(topic);
    if (!route) throw new Error(`inbox: no route for topic ${topic}; is it in the app's consumes declaration?`);
    return route;
  }
}
