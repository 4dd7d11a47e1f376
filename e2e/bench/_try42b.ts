import { spreadCost } from './remoteLive';
console.log('ratio', await spreadCost((line) => console.log(line)));
