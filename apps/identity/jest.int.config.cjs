module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'identity:int', rootDir: __dirname };
