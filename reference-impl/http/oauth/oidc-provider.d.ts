// The part of oidc-provider's API the reference server uses (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string };
  }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => unknown;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Client: { prototype: object };
    readonly Grant: new (properties: { accountId: string; clientId: string }) => {
      addOIDCScope(scope: string): void;
      addResourceScope(resource: string, scope: string): void;
      save(): Promise<string>;
    };
  }

  export default Provider;
}
