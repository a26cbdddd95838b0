module.exports = { ...require('../../jest.int.preset.cjs'), displayName: 'connections:int', rootDir: __dirname };
