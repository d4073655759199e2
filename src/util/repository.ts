/**
 * Where the files of the package that ran are read: the versioned address of its repository (the
 * `repository` of package.json, at the tag `v<version>`) when package.json names one, so that a
 * report or a catalogue page read later still points at the code of the version that ran; else
 * nothing, and links are paths from the package root (the repository's layout).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileLink } from '../runner/base/model.js';
import { packageRoot } from './package-root.js';

export interface Manifest {
  readonly version?: string;
  readonly repository?: string | { readonly url?: string };
}

/** The repository's web address of a package.json's `repository` (`github:o/r`, `o/r`,
 * `git+https://…/o/r.git`, `{ url }`), undefined when it names none. */
export function repositoryWebUrl(repository: Manifest['repository']): string | undefined {
  const raw = (typeof repository === 'string' ? repository : repository?.url)?.trim();
  if (raw === undefined || raw === '') return undefined;
  const short = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (short?.[2]) return `https://${short[1] === 'gitlab' ? 'gitlab.com' : short[1] === 'bitbucket' ? 'bitbucket.org' : 'github.com'}/${short[2]}`;
  const url = raw
    .replace(/^git\+/, '')
    .replace(/^git@([^:]+):/, 'https://$1/')
    .replace(/^(?:git|ssh):\/\/(?:git@)?/, 'https://')
    .replace(/\.git$/, '')
    .replace(/\/$/, '');
  return /^https?:\/\//.test(url) ? url : undefined;
}

/** The versioned address under which a package's files are read (`<repository>/blob/v<version>/`),
 * when its manifest names a repository and a version. */
export function filesBase(manifest: Manifest): string | undefined {
  const repository = repositoryWebUrl(manifest.repository);
  return repository === undefined || manifest.version === undefined ? undefined : `${repository}/blob/v${manifest.version}/`;
}

let manifest: Manifest | undefined;

/** The installed package's manifest (its version and repository). */
export function packageManifest(): Manifest {
  return (manifest ??= JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Manifest);
}

/** `filesBase` of the installed package. */
export const packageFilesBase = (): string | undefined => filesBase(packageManifest());

/** The link to a file of the installed package (`path:line`): versioned when it names its repository. */
export const packageFileLink = (location: string, prefix = ''): string => fileLink(location, packageFilesBase(), prefix);
