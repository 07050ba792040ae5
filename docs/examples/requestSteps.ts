import { Entity, resource, RestEndpoint, type RestEndpointOptions } from 'lenscache';

declare function currentToken(): Promise<string>;

/** Every request of these endpoints carries the user's token. */
export class AuthedEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> extends RestEndpoint<O> {
  override async getHeaders(headers: HeadersInit): Promise<HeadersInit> {
    return { ...headers, Authorization: `Bearer ${await currentToken()}` };
  }
}

export class Post extends Entity {
  id = '';
  title = '';
  static override key = 'Post';
}

export const getPost = new AuthedEndpoint({ urlPrefix: 'https://api.example.com', path: '/posts/:id', schema: Post });
// get, getList, getList.push, getList.getPage, update, ... all send the token.
export const PostResource = resource({
  urlPrefix: 'https://api.example.com',
  path: '/posts/:id',
  schema: Post,
  Endpoint: AuthedEndpoint,
});
