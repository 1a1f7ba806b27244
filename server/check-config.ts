/**
 * `npm start` runs this before building the web app: a bad environment variable is refused in
 * a second, naming the variable, instead of after a build of several minutes. Exit code 1 when bad.
 */
import { ConfigError, loadConfig } from './config';

try {
  loadConfig(process.env);
} catch (err) {
  console.error(err instanceof ConfigError ? `configuration: ${err.message}` : err);
  process.exit(1);
}
