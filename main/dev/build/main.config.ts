// The main-process build alone (what `npm install` and the CLI's rebuild run): the `main` section of electron.config.ts.
import { defineConfig } from 'electron-vite';
import { mainBuild } from './mainBuild';

export default defineConfig({ main: mainBuild });
