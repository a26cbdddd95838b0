module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'summary:int', rootDir: __dirname };
